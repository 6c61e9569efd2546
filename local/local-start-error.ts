/** A reason the local stack cannot start, with the exit code `npm start` ends with. */
export class LocalStartError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
