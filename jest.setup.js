// Nest's logger writes to stdout from inside tested code; keep test output readable unless asked.
if (!process.env.TEST_LOGS) require('@nestjs/common').Logger.overrideLogger(false);
