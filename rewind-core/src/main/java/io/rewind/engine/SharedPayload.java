package io.rewind.engine;

/**
 * One payload sent alike to several members (a rooted collective's result): the frames that carry it
 * share this holder, so a logging protocol logs the payload once, with the first frame, and lends that
 * entry to the others. One holder per result sent, never per call: a collective may send several
 * results under one tag (allGatherv with gaps broadcasts each block), and each is a payload of its own.
 * Used by the sending thread only.
 */
public final class SharedPayload {
    private Object protocolState;

    /** What the protocol kept of the payload when the first frame carried it, or null before. */
    public Object protocolState() {
        return protocolState;
    }

    public void setProtocolState(Object state) {
        this.protocolState = state;
    }
}
