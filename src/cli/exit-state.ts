// How a command reports the exit code it ends with when it does not throw (a partial run: 3). Its own module, so that
// commands and the program that registers them do not import each other.

/** Commands report their exit code here (a thrown error decides it otherwise). */
export interface ExitState {
  code: number;
}
