// Read flow control of one PTY: pause holds taken for different reasons (a reader falling behind,
// an attach taking its snapshot) compose — the PTY is paused while any hold is out and resumed
// when the last one is released; releasing a hold twice does nothing.

export interface Pausable {
  pause(): void;
  resume(): void;
}

export class PtyFlow {
  private holds = 0;
  /** Times the PTY went from reading to paused. */
  pauses = 0;

  constructor(private readonly target: Pausable) {}

  get paused(): boolean {
    return this.holds > 0;
  }

  /** Pauses the PTY (if not already) until the returned release is called. */
  hold(): () => void {
    if (this.holds++ === 0) {
      this.pauses++;
      this.target.pause();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.target.resume();
    };
  }
}
