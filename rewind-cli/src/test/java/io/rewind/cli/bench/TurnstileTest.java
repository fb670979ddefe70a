package io.rewind.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rewind.runtime.PointListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnstileTest {
    private static final long TIMEOUT = Duration.ofSeconds(30).toNanos();

    /**
     * Runs jobs of two rank threads each through their points; rank 0 of a job notes the job each
     * time it goes on from a point, which happens only while the job has the turn.
     */
    private static List<Integer> turnsTaken(Turnstile turns, int[] pointsPerJob) throws InterruptedException {
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int j = 0; j < pointsPerJob.length; j++) {
            int job = j;
            PointListener listener = turns.listenerFor(job);
            List<Thread> ranks = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                ranks.add(
                        Thread.ofPlatform().name("job-" + job + "-rank-" + rank).start(() -> {
                            for (int p = 1; p <= pointsPerJob[job]; p++) {
                                listener.atPoint(rank, p);
                                if (rank == 0) {
                                    order.add(job);
                                }
                            }
                        }));
            }
            threads.add(Thread.ofPlatform().name("job-" + job).start(() -> {
                for (Thread t : ranks) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                turns.finished(job);
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return order;
    }

    @Test
    void jobsTakeTurnsInCyclicOrderFromTheFirstJobGiven() throws InterruptedException {
        List<Integer> order = turnsTaken(new Turnstile(3, 2, TIMEOUT, 1), new int[] {3, 3, 3});
        assertEquals(List.of(1, 2, 0, 1, 2, 0, 1, 2, 0), order);
    }

    @Test
    void aJobThatEndsIsSkipped() throws InterruptedException {
        List<Integer> order = turnsTaken(new Turnstile(3, 2, TIMEOUT, 2), new int[] {4, 1, 3});
        assertEquals(List.of(2, 0, 1, 2, 0, 2, 0, 0), order);
    }

    @Test
    void theFirstJobMustBeOneOfTheJobs() {
        assertThrows(IllegalArgumentException.class, () -> new Turnstile(3, 2, TIMEOUT, 3));
    }
}
