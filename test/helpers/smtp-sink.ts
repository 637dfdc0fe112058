import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP relay for tests: counts what it receives, and can be told to refuse everything. */
export class SmtpSink {
  readonly messages: SinkMessage[] = [];
  readonly logins: Array<{ username: string; password: string }> = [];
  refusing = false;
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      // Any login is accepted and remembered, so a test can see which credentials a client sent.
      onAuth: (auth, _session, cb) => {
        this.logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
        cb(null, { user: auth.username ?? '' });
      },
      logger: false,
      onMailFrom: (_addr, _session, cb) => (this.refusing ? cb(Object.assign(new Error('Relay is down'), { responseCode: 421 })) : cb()),
      onData: (stream, session, cb) => {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
        stream.on('end', () => {
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          cb();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  to(address: string): SinkMessage[] {
    return this.messages.filter((m) => m.to.includes(address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
