package io.rewind.runtime;

import io.rewind.engine.Communicator;
import io.rewind.engine.CommunicatorFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Communicator creation for the ranks of one JVM, through a record the job keeps: the n-th creation
 * on a parent communicator is a slot where each member leaves its colour and key; the last one to
 * arrive computes every member's answer. The slots stay, so a restarted rank that creates its
 * communicators again gets the very same ones at once, without its peers taking part.
 */
final class CommunicatorRegistry implements CommunicatorFactory {
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
        Created[] results;

        Slot(int n) {
            colors = new int[n];
            keys = new int[n];
            parentWorld = new int[n];
            arrived = new boolean[n];
        }
    }

    @Override
    public Created create(Communicator parent, long creationIndex, int color, int key, int[] explicitGroup) {
        int n = parent.size();
        int me = parent.rank();
        Slot slot = slots.computeIfAbsent(
                new SlotKey(parent.context(), parent.worldRankOf(0), creationIndex), k -> new Slot(n));
        synchronized (slot) {
            if (!slot.arrived[me]) {
                slot.arrived[me] = true;
                slot.colors[me] = color;
                slot.keys[me] = key;
                slot.parentWorld[me] = parent.worldRankOf(me);
                if (explicitGroup != null) {
                    if (slot.explicitGroup != null && !Arrays.equals(slot.explicitGroup, explicitGroup)) {
                        throw new IllegalArgumentException(
                                "members of " + parent.name() + " created a communicator from different groups");
                    }
                    slot.explicitGroup = explicitGroup;
                }
                if (++slot.count == n) {
                    slot.results = compute(slot, n);
                    slot.notifyAll();
                }
            }
        }
        while (true) {
            synchronized (slot) {
                if (slot.results != null) {
                    return slot.results[me];
                }
                try {
                    slot.wait(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            parent.engine().checkAlive();
        }
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
