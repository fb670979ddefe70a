package io.rewind.bench.log;

import java.util.Arrays;
import java.util.Locale;

/**
 * How fast a copy runs depending on which core last wrote its source: the evidence behind the
 * cost of logging long messages on the in-JVM transport. A sender thread writes a buffer (so its
 * lines sit modified in the sender core's cache), then one of:
 *
 * <ul>
 *   <li>{@code local}: the sender copies it (what a transfer without logging costs);
 *   <li>{@code cross}: the receiver thread copies it (a pulled transfer);
 *   <li>{@code both}: the receiver copies it while the sender copies it into a second buffer (a
 *       pulled transfer beside the sender's log copy).
 * </ul>
 *
 * <p>Usage: {@code CrossCoreCopy [bytes] [rounds]}; prints the median microseconds of each copy.
 * Needs two free cores: the two threads spin while waiting for each other.
 */
public final class CrossCoreCopy {
    private static volatile int phase;
    private static volatile int done;

    private CrossCoreCopy() {}

    public static void main(String[] args) throws InterruptedException {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        byte[] source = new byte[size];
        byte[] receiverCopy = new byte[size];
        byte[] senderCopy = new byte[size];
        long[] receiverNanos = new long[rounds];
        long[] bothReceiver = new long[rounds];
        Thread receiver = new Thread(
                () -> {
                    for (int r = 0; r < 3 * rounds; r++) {
                        while (phase != r + 1) {
                            Thread.onSpinWait();
                        }
                        if (r % 3 != 0) { // rounds 1 and 2 of each triple: cross, both
                            long t0 = System.nanoTime();
                            System.arraycopy(source, 0, receiverCopy, 0, size);
                            if (r % 3 == 1) {
                                receiverNanos[r / 3] = System.nanoTime() - t0;
                            } else {
                                bothReceiver[r / 3] = System.nanoTime() - t0;
                            }
                        }
                        done = r + 1;
                    }
                },
                "receiver");
        long[] local = new long[rounds];
        long[] bothSender = new long[rounds];
        receiver.setDaemon(true);
        receiver.start();
        for (int r = 0; r < 3 * rounds; r++) {
            Arrays.fill(source, (byte) r); // the sender writes its buffer
            phase = r + 1;
            long t0 = System.nanoTime();
            if (r % 3 == 0) {
                System.arraycopy(source, 0, senderCopy, 0, size);
                local[r / 3] = System.nanoTime() - t0;
            } else if (r % 3 == 2) {
                System.arraycopy(source, 0, senderCopy, 0, size);
                bothSender[r / 3] = System.nanoTime() - t0;
            }
            while (done != r + 1) {
                Thread.onSpinWait();
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%d bytes, median of %d rounds (us): local %.1f | cross %.1f | both: " + "receiver %.1f, sender %.1f%n",
                size,
                rounds,
                median(local),
                median(receiverNanos),
                median(bothReceiver),
                median(bothSender));
    }

    private static double median(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1000.0;
    }
}
