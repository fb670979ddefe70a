package io.rewind.apps.sweep;

import io.rewind.check.RecoveryCheck;
import io.rewind.runtime.JobConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The failure-free run of every program the campaign has run, made once and shared by its runs: a
 * reference does not depend on the protocol, the kills or the jitter of the runs compared with it.
 * Two workers that need one program's reference at once make it once, the second waits.
 */
final class References {
    /** A program's failure-free run, or why there is none (it fails without failures). */
    record Reference(RecoveryCheck check, long millis, String failure) {
        boolean ok() {
            return failure == null;
        }
    }

    private final ConcurrentHashMap<Program, CompletableFuture<Reference>> made = new ConcurrentHashMap<>();

    /** The job a program runs as, without protocol or kills: the reference's and every run's. */
    static JobConfig job(Program p) {
        return JobConfig.builder(p.mainClass())
                .ranks(p.ranks())
                .args(p.args())
                .timeout(p.limit())
                .stallTimeout(p.stall())
                .option("--clusters", RunSpec.clusters())
                .quiet()
                .build();
    }

    Reference of(Program p) {
        CompletableFuture<Reference> mine = new CompletableFuture<>();
        CompletableFuture<Reference> existing = made.putIfAbsent(p, mine);
        if (existing != null) {
            try {
                return existing.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the reference of " + p, e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("the reference of " + p + " failed", e.getCause());
            }
        }
        Reference r;
        try {
            long start = System.nanoTime();
            RecoveryCheck check = RecoveryCheck.of(job(p));
            r = new Reference(check, (System.nanoTime() - start) / 1_000_000, null);
        } catch (RuntimeException e) {
            r = new Reference(null, 0, "the failure-free run failed: " + e.getMessage());
        }
        mine.complete(r);
        return r;
    }

    /** How many programs have a reference. */
    int size() {
        return made.size();
    }
}
