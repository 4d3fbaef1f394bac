// The `smtp` section: how workbooks and alert emails leave the machine. The password comes from an env var.
import { z } from 'zod';

export const smtpConfigSchema = z
  .object({
    host: z.string().min(1).describe('SMTP server host name.'),
    port: z.number().int().min(1).max(65535).default(587).describe('SMTP port (465 implicit TLS, 587 STARTTLS).'),
    secure: z.boolean().default(false).describe('true for implicit TLS (port 465); false uses STARTTLS when offered.'),
    requireTls: z
      .boolean()
      .default(false)
      .describe('With secure=false: refuse to send unless the server upgrades the connection with STARTTLS.'),
    rejectUnauthorized: z
      .boolean()
      .default(true)
      .describe('Check the server\'s TLS certificate; set false only for an internal relay with a self-signed certificate.'),
    user: z.string().optional().describe('SMTP user name (omit for a relay without authentication).'),
    passwordEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .default('GPULEDGER_SMTP_PASSWORD')
      .describe('Environment variable holding the SMTP password.'),
    from: z.string().min(3).describe('Sender address, e.g. "gpuledger <finops@example.com>".'),
    timeoutSeconds: z
      .number()
      .positive()
      .max(600)
      .default(60)
      .describe('How long to wait for the server to connect, greet or answer a command before giving up.'),
  })
  .strict();
export type SmtpConfig = z.infer<typeof smtpConfigSchema>;
