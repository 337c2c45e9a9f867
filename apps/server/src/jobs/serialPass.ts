// A pass of background work (send due mail, handle pending events) that is woken often (a NOTIFY,
// a sweep timer) but must run one at a time: a wake-up during a pass runs it once more right
// after, however many came; after stop() nothing new starts and stop() waits for the pass running.

export class SerialPass {
  private running: Promise<void> | undefined;
  private again = false;
  stopped = false;

  constructor(private readonly pass: () => Promise<unknown>) {}

  /** Runs the pass now, or right after the one in progress. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .then(() => undefined)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
