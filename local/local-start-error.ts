/**
 * A reason the local stack cannot start, with the exit code `npm start` ends with: 3 Java missing,
 * 4 DynamoDB Local failed, 5 data directory not writable, 6 API port taken, 7 DynamoDB Local's port
 * taken, 8 the S3 emulator's port taken, 9 LOCAL_CLIENT_ID not a client id, 10 PostgreSQL failed, 11 PostgreSQL's port taken (README, "Configuration").
 */
export class LocalStartError extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
  }
}
