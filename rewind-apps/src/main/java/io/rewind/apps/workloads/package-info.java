/**
 * Self-checking workloads that checkpoint through {@link io.rewind.api.Checkpointer}: each prints a
 * deterministic checksum, so a run with failures can be compared bit for bit with one without.
 */
package io.rewind.apps.workloads;
