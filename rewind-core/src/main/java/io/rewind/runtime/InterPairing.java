package io.rewind.runtime;

import io.rewind.engine.CommunicatorFactory.Created;
import io.rewind.engine.CommunicatorFactory.InterLink;
import io.rewind.engine.ErrorClass;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Pairs the two sides of creations that join two groups (intercommunicator creation and
 * duplication, merge). A side is ready when every member of its local communicator has arrived; it
 * then waits here for the side its leader names, and the first ready side from the other direction
 * with the same peer communicator and tag pairs with the oldest waiting one, in the order MPI would
 * match the leaders' messages. Both sides' answers are recorded in their slots, so a restarted rank
 * gets them again at once.
 */
final class InterPairing {
    /** What two sides that pair share: the peer communicator, the two leaders, the tag and the kind. */
    private record PairKey(int peerContext, int peerIdentity, int lowLeader, int highLeader, int tag, boolean merge) {}

    /** A ready side: its slot, its group (world ranks in local rank order) and its leader's link. */
    private record Side(CommunicatorRegistry.Slot slot, int[] group, InterLink link) {}

    private final IntSupplier newContext;
    private final Map<PairKey, ArrayDeque<Side>> waiting = new HashMap<>();

    InterPairing(IntSupplier newContext) {
        this.newContext = newContext;
    }

    /** Called once, when the last member of a side has arrived in {@code slot}. */
    void sideReady(CommunicatorRegistry.Slot slot, int n) {
        int[] group;
        InterLink[] links;
        synchronized (slot) {
            group = slot.parentWorld.clone();
            links = slot.links.clone();
        }
        Created refusal = refusal(group, links);
        if (refusal != null) {
            slot.results.complete(repeat(refusal, n));
            return;
        }
        Side mine = new Side(slot, group, links[links[0].localLeader()]);
        InterLink l = mine.link();
        PairKey key = new PairKey(
                l.peerContext(),
                l.peerIdentity(),
                Math.min(l.leaderWorld(), l.remoteLeaderWorld()),
                Math.max(l.leaderWorld(), l.remoteLeaderWorld()),
                l.tag(),
                l.merge());
        Side other;
        synchronized (this) {
            ArrayDeque<Side> queue = waiting.computeIfAbsent(key, k -> new ArrayDeque<>());
            Side head = queue.peekFirst();
            if (head == null || head.link().leaderWorld() != l.remoteLeaderWorld()) {
                queue.addLast(mine); // the other side has not come yet (or only this direction waits)
                return;
            }
            other = queue.pollFirst();
            if (queue.isEmpty()) {
                waiting.remove(key);
            }
        }
        pair(mine, other);
    }

    /** Why a complete side cannot take part, or null. */
    private static Created refusal(int[] group, InterLink[] links) {
        int leader = links[0].localLeader();
        for (InterLink link : links) {
            if (link.localLeader() != leader) {
                return Created.refused(
                        ErrorClass.ARG,
                        "the members named different local leaders (" + leader + " and " + link.localLeader() + ")");
            }
        }
        InterLink l = links[leader];
        if (l.refusal() != null) {
            return Created.refused(ErrorClass.ofCode(l.refusalClass()), l.refusal());
        }
        for (InterLink link : links) {
            if (link.high() != l.high()) {
                return Created.refused(ErrorClass.ARG, "the members of one group passed different 'high' values");
            }
        }
        for (int w : group) {
            if (w == l.remoteLeaderWorld()) {
                return Created.refused(
                        ErrorClass.RANK,
                        "the remote leader (world rank " + w + ") is a member of the local group; the groups must be"
                                + " disjoint");
            }
        }
        return null;
    }

    private void pair(Side a, Side b) {
        for (int x : a.group()) {
            for (int y : b.group()) {
                if (x == y) {
                    Created refused = Created.refused(
                            ErrorClass.ARG, "the two groups share world rank " + x + "; they must be disjoint");
                    a.slot().results.complete(repeat(refused, a.group().length));
                    b.slot().results.complete(repeat(refused, b.group().length));
                    return;
                }
            }
        }
        if (a.link().merge()) {
            merge(a, b);
            return;
        }
        int context = newContext.getAsInt();
        a.slot().results.complete(interSide(context, newContext.getAsInt(), a.group(), b.group()));
        b.slot().results.complete(interSide(context, newContext.getAsInt(), b.group(), a.group()));
    }

    private static Created[] interSide(int context, int localContext, int[] local, int[] remote) {
        Created[] out = new Created[local.length];
        for (int i = 0; i < local.length; i++) {
            out[i] = new Created(context, local, i, remote, localContext, 0, null);
        }
        return out;
    }

    /**
     * The group whose members passed {@code high == false} comes first; when both passed the same,
     * the group whose leader has the lower world rank does.
     */
    private void merge(Side a, Side b) {
        boolean aFirst = a.link().high() != b.link().high()
                ? !a.link().high()
                : a.link().leaderWorld() < b.link().leaderWorld();
        Side first = aFirst ? a : b;
        Side second = aFirst ? b : a;
        int[] union = Arrays.copyOf(first.group(), first.group().length + second.group().length);
        System.arraycopy(second.group(), 0, union, first.group().length, second.group().length);
        int context = newContext.getAsInt();
        first.slot().results.complete(mergedSide(context, union, 0, first.group().length));
        second.slot().results.complete(mergedSide(context, union, first.group().length, second.group().length));
    }

    private static Created[] mergedSide(int context, int[] union, int offset, int n) {
        Created[] out = new Created[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Created(context, union, offset + i);
        }
        return out;
    }

    private static Created[] repeat(Created c, int n) {
        Created[] out = new Created[n];
        Arrays.fill(out, c);
        return out;
    }
}
