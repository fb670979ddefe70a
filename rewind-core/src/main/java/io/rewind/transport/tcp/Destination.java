package io.rewind.transport.tcp;

import java.net.InetSocketAddress;
import java.util.function.BiFunction;

/**
 * What a transport knows of one other rank as a destination: the incarnation it sends to, where that
 * incarnation listens, whether it is gone, and the link to it. The link is opened by the first send
 * after the address is given; a link that closed after it was connected is opened again by the next
 * send, but one that never connected is kept, so frames are dropped at once (not each after a connect
 * timeout) until the rank is given again. Methods that replace the link return the old one, for the
 * caller to close outside this object's lock.
 */
final class Destination {
    private final int worldRank;
    /** -1 until an address is given. */
    private int incarnation = -1;

    private InetSocketAddress address;
    private boolean gone;
    private OutboundLink link;

    Destination(int worldRank) {
        this.worldRank = worldRank;
    }

    /**
     * The link to the current incarnation, opened by {@code opener} if there is none; null if no live
     * incarnation is known.
     */
    synchronized OutboundLink link(BiFunction<PeerIdentity, InetSocketAddress, OutboundLink> opener) {
        if (address == null || gone) {
            return null;
        }
        if (link == null || (!link.isUsable() && !link.neverConnected())) {
            link = opener.apply(new PeerIdentity(worldRank, incarnation), address);
        }
        return link;
    }

    /**
     * Incarnation {@code newIncarnation} listens at {@code newAddress}. Ignored if an older incarnation
     * than the current; otherwise it becomes the destination, and the old link is returned unless it
     * goes to the same incarnation and address and still works.
     */
    synchronized OutboundLink give(int newIncarnation, InetSocketAddress newAddress) {
        if (newIncarnation < incarnation) {
            return null;
        }
        boolean same = newIncarnation == incarnation && newAddress.equals(address) && !gone;
        incarnation = newIncarnation;
        address = newAddress;
        gone = false;
        if (same && link != null && link.isUsable()) {
            return null;
        }
        OutboundLink old = link;
        link = null;
        return old;
    }

    /** Incarnation {@code deadIncarnation} is dead: returns its link, if it is the current one. */
    synchronized OutboundLink gone(int deadIncarnation) {
        if (deadIncarnation < incarnation) {
            return null; // a later incarnation is known already
        }
        incarnation = deadIncarnation;
        gone = true;
        OutboundLink old = link;
        link = null;
        return old;
    }

    /** The transport closes: returns the link. */
    synchronized OutboundLink close() {
        gone = true;
        OutboundLink old = link;
        link = null;
        return old;
    }
}
