import type { TModule } from '../../app-deps';
import { registerActivationRoutes } from './activation.routes';
import { registerPasswordResetRoutes } from './password-reset.routes';
import { registerProfileRoutes } from './profile.routes';
import { registerSessionCheckRoutes } from './session-check.routes';
import { registerSignInRoutes } from './sign-in.routes';
import { registerTotpRoutes } from './totp.routes';

/** MSP-user accounts: sign-in with 2FA, session check and logout, reset, activation, profile, TOTP enrolment. */
export const registerAuthRoutes: TModule = async (app, deps) => {
  await registerSignInRoutes(app, deps);
  await registerSessionCheckRoutes(app, deps);
  await registerPasswordResetRoutes(app, deps);
  await registerActivationRoutes(app, deps);
  await registerProfileRoutes(app, deps);
  await registerTotpRoutes(app, deps);
};
