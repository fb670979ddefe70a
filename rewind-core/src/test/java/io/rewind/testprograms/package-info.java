/** Rank programs for the core tests; outside the runtime packages, so each rank loads its own copy. */
package io.rewind.testprograms;
