package io.rewind.engine;

/** What a probe found: the envelope of the oldest matching message, not yet received. */
public record ProbeResult(int source, int tag, long lengthBytes) {}
