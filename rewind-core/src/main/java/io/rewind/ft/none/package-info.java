/** The protocol without fault tolerance: the baseline every other protocol's cost is measured against. */
package io.rewind.ft.none;
