package io.rewind.ft;

import io.rewind.ft.log.PayloadLogConfig;

/**
 * What a job offers its protocol: its size and its settings. Ranks learn about each other by control
 * messages, never from here.
 *
 * @param ranks                      world size
 * @param keepLines                  recovery lines each rank keeps
 * @param payloadLog                 payload log settings, for protocols that log payloads
 * @param applicationLevelCollectives log collectives at application level (one entry per call)
 */
public record ProtocolServices(
        int ranks, int keepLines, PayloadLogConfig payloadLog, boolean applicationLevelCollectives) {}
