package io.rewind.ft;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values of a protocol's options, as text by option name: what a job carries for its protocol
 * without knowing what the options mean. {@link ProtocolDescriptor#resolve} turns what a user gave
 * into the canonical values of the options the protocol declares, defaults included; the protocol
 * reads them from {@link ProtocolServices#options} when it starts. Immutable.
 */
public record ProtocolOptions(Map<String, String> values) {
    /** No values. */
    public static final ProtocolOptions NONE = new ProtocolOptions(Map.of());

    public ProtocolOptions {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The value of option {@code name} ({@code --clusters}), or null if it has none. */
    public String get(String name) {
        return values.get(name);
    }

    /** These values with {@code name} set to {@code value}. */
    public ProtocolOptions with(String name, String value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(name, value);
        return new ProtocolOptions(m);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
