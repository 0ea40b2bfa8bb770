// Email over SMTP (nodemailer), configured by environment: SMTP_URL (smtp://user:pass@host:587 or smtps://…) and
// MAIL_FROM. Without SMTP_URL messages are written to the log (the embedded default), never silently dropped.
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}
export interface Mailer {
  send(m: Mail): Promise<void>;
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return { send: async (m) => void (await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text })) };
}

export function logMailer(log: (s: string) => void): Mailer {
  return { send: async (m) => log(`mail (no SMTP_URL configured) to ${m.to}: ${m.subject}\n${m.text}`) };
}

export function mailerFromEnv(log: (s: string) => void, env = process.env): Mailer {
  return env.SMTP_URL
    ? smtpMailer(env.SMTP_URL, env.MAIL_FROM ?? 'US Power Outage Data <alerts@localhost>')
    : logMailer(log);
}
