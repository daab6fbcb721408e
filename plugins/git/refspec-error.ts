/** A refspec git would refuse or could mistake for an option (the caller wraps it in its own code). */
export class GitRefspecError extends Error {
  constructor(readonly refspec: string) {
    super(`invalid refspec "${refspec}"`);
  }
}
