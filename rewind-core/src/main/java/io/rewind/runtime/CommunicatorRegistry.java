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

    /** Sides of creations that join two groups, waiting for the other side; see {@link InterPairing}. */
    private final InterPairing pairing = new InterPairing(() -> nextContext.getAndAdd(2));

    /**
     * The n-th creation on one parent. The colours of a split share one context, so the parent is
     * named by its context and the world rank of its first member: groups that share a context are
     * disjoint. A creation that only a subset calls ({@code createGroup}) is counted apart, per
     * subset and tag, since the other members do not count it.
     */
    private record SlotKey(int parentContext, int parentFirstWorld, long index, List<Integer> subgroup, int tag) {}

    static final class Slot {
        final int[] colors;
        final int[] keys;
        final int[] parentWorld;
        final boolean[] arrived;
        int[] explicitGroup;
        /** For a side of a creation joining two groups: each member's link, the leader's counts. */
        CommunicatorFactory.InterLink[] links;

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
            int[] explicitGroup,
            boolean subgroupOnly,
            int[] interLink,
            String refusal)
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
                    explicitGroup,
                    false,
                    null,
                    null);
        }

        /**
         * The part of a member of {@code group} (world ranks) creating a communicator over it from
         * {@code parent} without the other members: the subset stands for the parent, the tag is the
         * colour and the occurrence the creation index.
         */
        public static Request ofSubgroup(Communicator parent, int[] group, int tag, long occurrence) {
            int me = parent.engine().worldRank();
            int member = -1;
            for (int i = 0; i < group.length; i++) {
                if (group[i] == me) {
                    member = i;
                }
            }
            return new Request(
                    parent.context(),
                    parent.worldRankOf(0),
                    group.length,
                    occurrence,
                    member,
                    me,
                    tag,
                    0,
                    group.clone(),
                    true,
                    null,
                    null);
        }

        /** The part of {@code local}'s calling member in a creation joining its group to another. */
        public static Request ofInter(Communicator local, long creationIndex, CommunicatorFactory.InterLink link) {
            return new Request(
                    local.context(),
                    local.worldRankOf(0),
                    local.size(),
                    creationIndex,
                    local.rank(),
                    local.worldRankOf(local.rank()),
                    0,
                    0,
                    null,
                    false,
                    link.toArray(),
                    link.refusal());
        }
    }

    @Override
    public Created create(Communicator parent, long creationIndex, int color, int key, int[] explicitGroup) {
        return await(arrive(Request.of(parent, creationIndex, color, key, explicitGroup)), parent);
    }

    @Override
    public Created createFromGroup(Communicator parent, int[] group, int tag, long occurrence) {
        return await(arrive(Request.ofSubgroup(parent, group, tag, occurrence)), parent);
    }

    @Override
    public Created createInter(Communicator local, long creationIndex, CommunicatorFactory.InterLink link) {
        return await(arrive(Request.ofInter(local, creationIndex, link)), local);
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
        SlotKey key = new SlotKey(
                r.parentContext(),
                r.parentFirstWorld(),
                r.creationIndex(),
                r.subgroupOnly() ? Arrays.stream(r.explicitGroup()).boxed().toList() : null,
                r.subgroupOnly() ? r.color() : 0);
        Slot slot = slots.computeIfAbsent(key, k -> new Slot(n));
        if (r.interLink() != null) {
            return arriveInter(slot, r);
        }
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

    /**
     * A member's part in one side of a creation joining two groups: once the whole side is there, it
     * is paired with the other side (or waits for it).
     */
    private CompletableFuture<Created> arriveInter(Slot slot, Request r) {
        int n = r.parentSize();
        int me = r.member();
        boolean complete = false;
        synchronized (slot) {
            if (!slot.arrived[me]) {
                if (slot.links == null) {
                    slot.links = new CommunicatorFactory.InterLink[n];
                }
                slot.arrived[me] = true;
                slot.parentWorld[me] = r.memberWorld();
                slot.links[me] = CommunicatorFactory.InterLink.fromArray(r.interLink(), r.refusal());
                complete = ++slot.count == n;
            }
        }
        if (complete) {
            pairing.sideReady(slot, n);
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
