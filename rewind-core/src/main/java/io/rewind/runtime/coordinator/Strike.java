package io.rewind.runtime.coordinator;

/**
 * How an incarnation was struck: when ({@code System.nanoTime()}), why, and how far it had got
 * (checkpoint points passed, communication operations made), which is where its successor is back at
 * the crash point.
 */
public record Strike(long nanos, String reason, long points, long operations) {}
