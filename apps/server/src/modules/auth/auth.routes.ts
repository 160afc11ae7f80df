import type { TModule } from '../../app-deps';
import { registerPasswordResetRoutes } from './password-reset.routes';
import { registerSessionCheckRoutes } from './session-check.routes';
import { registerSignInRoutes } from './sign-in.routes';
import { registerTotpRoutes } from './totp.routes';

/** MSP-user sign-in: sign-in with 2FA, session check and logout, reset, TOTP enrolment (activation and profile are their own modules). */
export const registerAuthRoutes: TModule = async (app, deps) => {
  await registerSignInRoutes(app, deps);
  await registerSessionCheckRoutes(app, deps);
  await registerPasswordResetRoutes(app, deps);
  await registerTotpRoutes(app, deps);
};
