package io.rewind.runtime;

import io.rewind.engine.Communicator;
import io.rewind.engine.CommunicatorFactory;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Communicator creation through a record the job keeps (in the JVM of in-JVM ranks, in the launcher
 * for rank processes): the n-th creation
 * on a parent communicator is a slot where each member leaves its colour and key; the last one to
 * arrive computes every member's answer. The slots stay, so a restarted rank that creates its
 * communicators again gets the very same ones at once, without its peers taking part.
 */
public final class CommunicatorRegistry implements CommunicatorFactory {
    /** Contexts 0..3 are the world and self communicators'. */
    private final AtomicInteger nextContext = new AtomicInteger(4);

    private final ConcurrentHashMap<SlotKey, Slot> slots = new ConcurrentHashMap<>();

    /**
     * The n-th creation on one parent. The colours of a split share one context, so the parent is
     * named by its context and the world rank of its first member: groups that share a context are
     * disjoint.
     */
    private record SlotKey(int parentContext, int parentFirstWorld, long index) {}

    private static final class Slot {
        final int[] colors;
        final int[] keys;
        final int[] parentWorld;
        final boolean[] arrived;
        int[] explicitGroup;
        int count;
        final CompletableFuture<Created[]> results = new CompletableFuture<>();

        Slot(int n) {
            colors = new int[n];
            keys = new int[n];
            parentWorld = new int[n];
            arrived = new boolean[n];
        }
    }

    /**
     * One member's part of a creation: the parent (its context, its first member's world rank and
     * size), which creation on it, and the member's rank, world rank, colour and key (or the group,
     * for a creation from a group).
     */
    public record Request(
            int parentContext,
            int parentFirstWorld,
            int parentSize,
            long creationIndex,
            int member,
            int memberWorld,
            int color,
            int key,
            int[] explicitGroup)
            implements Serializable {
        /** The part of {@code parent}'s calling member. */
        public static Request of(Communicator parent, long creationIndex, int color, int key, int[] explicitGroup) {
            return new Request(
                    parent.context(),
                    parent.worldRankOf(0),
                    parent.size(),
                    creationIndex,
                    parent.rank(),
                    parent.worldRankOf(parent.rank()),
                    color,
                    key,
                    explicitGroup);
        }
    }

    @Override
    public Created create(Communicator parent, long creationIndex, int color, int key, int[] explicitGroup) {
        return await(arrive(Request.of(parent, creationIndex, color, key, explicitGroup)), parent);
    }

    /**
     * Waits for a creation's answer, wherever it is computed, while checking that the rank is still
     * alive (a crash or an abort ends the wait).
     */
    public static Created await(CompletableFuture<Created> answer, Communicator parent) {
        while (true) {
            try {
                return answer.get(20, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                parent.engine().checkAlive();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                parent.engine().checkAlive();
            }
        }
    }

    /**
     * Records a member's part; the answer completes once every member of the parent has arrived (at
     * once for a member asking again, after a restart). Completes exceptionally if the members asked
     * for different groups.
     */
    public CompletableFuture<Created> arrive(Request r) {
        int n = r.parentSize();
        int me = r.member();
        Slot slot = slots.computeIfAbsent(
                new SlotKey(r.parentContext(), r.parentFirstWorld(), r.creationIndex()), k -> new Slot(n));
        synchronized (slot) {
            if (!slot.arrived[me]) {
                slot.arrived[me] = true;
                slot.colors[me] = r.color();
                slot.keys[me] = r.key();
                slot.parentWorld[me] = r.memberWorld();
                if (r.explicitGroup() != null) {
                    if (slot.explicitGroup != null && !Arrays.equals(slot.explicitGroup, r.explicitGroup())) {
                        return CompletableFuture.failedFuture(new IllegalArgumentException(
                                "members of a communicator created a communicator from different groups"));
                    }
                    slot.explicitGroup = r.explicitGroup();
                }
                if (++slot.count == n) {
                    slot.results.complete(compute(slot, n));
                }
            }
        }
        return slot.results.thenApply(all -> all[me]);
    }

    private Created[] compute(Slot slot, int n) {
        Created[] results = new Created[n];
        int context = nextContext.getAndAdd(2);
        if (slot.explicitGroup != null) {
            int[] group = slot.explicitGroup;
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < group.length; i++) {
                    if (group[i] == slot.parentWorld[r]) {
                        results[r] = new Created(context, group.clone(), i);
                    }
                }
            }
            return results;
        }
        TreeSet<Integer> colors = new TreeSet<>();
        for (int r = 0; r < n; r++) {
            if (slot.colors[r] >= 0) {
                colors.add(slot.colors[r]);
            }
        }
        for (int color : colors) {
            List<Integer> members = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                if (slot.colors[r] == color) {
                    members.add(r);
                }
            }
            members.sort(Comparator.<Integer>comparingInt(r -> slot.keys[r]).thenComparingInt(r -> r));
            int[] group = new int[members.size()];
            for (int i = 0; i < group.length; i++) {
                group[i] = slot.parentWorld[members.get(i)];
            }
            for (int i = 0; i < group.length; i++) {
                results[members.get(i)] = new Created(context, group, i);
            }
        }
        return results;
    }
}
