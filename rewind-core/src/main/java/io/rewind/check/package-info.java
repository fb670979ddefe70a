/**
 * The recovery oracle: runs a program without failures, then under each protocol that recovers with
 * crashes injected, and compares the outcome and every rank's output bit for bit. Used by the test
 * suites and the chaos sweeps. Sits above the runtime; nothing below depends on it.
 */
package io.rewind.check;
