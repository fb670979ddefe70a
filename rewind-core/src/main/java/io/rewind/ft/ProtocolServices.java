package io.rewind.ft;

import io.rewind.ft.log.PayloadLogConfig;

/**
 * What a job offers its protocol: its size, its settings, and how to ask what a live rank holds.
 *
 * @param ranks                      world size
 * @param keepLines                  recovery lines each rank keeps
 * @param payloadLog                 payload log settings, for protocols that log payloads
 * @param applicationLevelCollectives log collectives at application level (one entry per call)
 * @param peers                      how far a live rank's incoming channels have arrived
 */
public record ProtocolServices(int ranks, int keepLines, PayloadLogConfig payloadLog,
                               boolean applicationLevelCollectives, PeerFrontiers peers) {
}
