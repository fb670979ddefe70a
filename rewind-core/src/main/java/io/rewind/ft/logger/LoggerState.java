package io.rewind.ft.logger;

/** Life of one logger node. */
public enum LoggerState {
    /** Accepts dumps, serves reads. */
    RUNNING,
    /** Died: everything it held is gone. */
    DEAD;

    /** The one transition: a running logger dies (once). */
    LoggerState die() {
        if (this != RUNNING) {
            throw new IllegalStateException("a " + this + " logger cannot die");
        }
        return DEAD;
    }
}
