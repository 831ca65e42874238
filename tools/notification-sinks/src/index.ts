// The local notification sinks: an SMTP server and Twilio's Messages endpoint, keeping what they receive.
// Development, tests and CI only.
export * from './lib/sinks';
