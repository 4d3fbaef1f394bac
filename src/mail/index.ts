// Email for the whole program: the SMTP mailer, shared by report delivery and the alerts channel (their HTML bodies
// are written with src/present, like every page).
export { createMailer, MailError, type Mailer, type MailerOptions, type MailMessage, type MailAttachment, type SentMail } from './mailer.ts';
