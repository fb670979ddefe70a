package io.rewind.apps.crossing;

/**
 * Time a rank spends outside the runtime in an iteration. It stands for computation, and it sets which
 * rank is behind which: kills by time then land in the middle of a run, and the rank that pauses longer
 * sends its messages after its receiver has passed the next checkpoint point.
 */
final class Pause {
    private Pause() {}

    static void millis(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            // The pause only shapes timing; keep the interrupt for whoever asks next.
            Thread.currentThread().interrupt();
        }
    }
}
