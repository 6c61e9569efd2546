/**
 * Stands in for `@aws-sdk/credential-provider-node` inside Lambda bundles (an esbuild alias set
 * in infra/bundling.ts). Lambda hands every function its role's credentials in environment
 * variables, so the SDK's full default chain (SSO, ini files, process, IMDS, web identity and the
 * STS/SSO clients behind them, ~90 KB) would never run there. Local mode runs from source and
 * keeps the full chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
export const credentialsWillNeedRefresh = () => false;
export const credentialsTreatedAsExpired = () => false;
