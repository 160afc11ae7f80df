import type { RouteObject } from 'react-router';

/**
 * The sign-in, sign-up, activation and password-reset routes (owned by features/auth). Literal
 * paths are listed before the one-segment MSP paths; React Router ranks static segments above
 * `:msp` anyway. Every page is its own lazily loaded chunk.
 */
export const authRoutes: RouteObject[] = [
  { path: '/auth/login', lazy: () => import('./pages/general-login-page').then((m) => ({ Component: m.GeneralLoginPage })) },
  { path: '/auth/login/tech', lazy: () => import('./pages/msp-user-login-page').then((m) => ({ Component: m.TechnicianLoginPage })) },
  { path: '/auth/login/client', lazy: () => import('./pages/msp-user-login-page').then((m) => ({ Component: m.ClientLoginPage })) },
  { path: '/auth/signup', lazy: () => import('./pages/account-signup-page').then((m) => ({ Component: m.AccountSignupPage })) },
  { path: '/msp/signup', lazy: () => import('./pages/msp-signup-page').then((m) => ({ Component: m.MspSignupPage })) },
  { path: '/public', lazy: () => import('./pages/public-landing-page').then((m) => ({ Component: m.PublicLandingPage })) },
  { path: '/public/signup', lazy: () => import('./pages/public-signup-page').then((m) => ({ Component: m.PublicSignupPage })) },
  { path: '/public/dashboard', lazy: () => import('./pages/public-dashboard-page').then((m) => ({ Component: m.PublicDashboardPage })) },
  { path: '/public/:msp', lazy: () => import('./pages/public-msp-page').then((m) => ({ Component: m.PublicMspPage })) },
  { path: '/dev/outbox', lazy: () => import('./pages/dev-outbox-page').then((m) => ({ Component: m.DevOutboxPage })) },
  { path: '/:msp', lazy: () => import('./pages/msp-landing-page').then((m) => ({ Component: m.MspLandingPage })) },
  { path: '/:msp/forgot', lazy: () => import('./pages/forgot-password-email-page').then((m) => ({ Component: m.ForgotPasswordEmailPage })) },
  {
    path: '/:msp/forgot/verification',
    lazy: () => import('./pages/forgot-password-code-page').then((m) => ({ Component: m.ForgotPasswordCodePage })),
  },
  {
    path: '/:msp/forgot/verification/createpassword',
    lazy: () => import('./pages/forgot-password-new-password-page').then((m) => ({ Component: m.ForgotPasswordNewPasswordPage })),
  },
  { path: '/:msp/invitation', lazy: () => import('./pages/invitation-page').then((m) => ({ Component: m.InvitationPage })) },
  { path: '/:msp/activate', lazy: () => import('./pages/activation-page').then((m) => ({ Component: m.ActivationPage })) },
];
