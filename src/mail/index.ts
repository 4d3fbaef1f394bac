// Email for the whole program: the SMTP mailer and HTML escaping, shared by report delivery and the alerts channel.
export { createMailer, MailError, type Mailer, type MailerOptions, type MailMessage, type MailAttachment, type SentMail } from './mailer.ts';
export { escapeHtml } from './escape-html.ts';
