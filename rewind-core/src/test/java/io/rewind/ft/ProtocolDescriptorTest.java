package io.rewind.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What descriptors declare agrees with their protocols, and option values are resolved by them. */
class ProtocolDescriptorTest {
    @Test
    void declaredCapabilitiesAreWhatTheProtocolsAnswer() {
        for (ProtocolDescriptor d : ProtocolRegistry.all()) {
            Set<Capability> declared = EnumSet.noneOf(Capability.class);
            declared.addAll(d.capabilities());
            declared.remove(Capability.BOUNDS_LOG); // no instance method asks it
            assertEquals(ProtocolDescriptor.capabilitiesOf(d.create()), declared, d.name());
            assertEquals(d.name(), d.create().name());
        }
    }

    @Test
    void optionValuesAreResolvedByTheProtocolThatDeclaresThem() {
        ProtocolDescriptor spbc = ProtocolRegistry.get("spbc");
        ProtocolOptions given = ProtocolOptions.NONE.with("--clusters", " 2 ").with("--switch-off", "dendrogram");
        // Its own option canonical, the other protocol's dropped.
        assertEquals(java.util.Map.of("--clusters", "2"), spbc.resolve(given, 4).values());
        assertEquals(
                java.util.Map.of("--clusters", "default"),
                spbc.resolve(ProtocolOptions.NONE, 4).values(),
                "the default");
        IllegalArgumentException tooMany = assertThrows(
                IllegalArgumentException.class, () -> spbc.resolve(ProtocolOptions.NONE.with("--clusters", "5"), 3));
        assertTrue(tooMany.getMessage().contains("cannot make 5 clusters of 3 ranks"), tooMany.getMessage());
        // One cluster per node is fixed from the first placement.
        ProtocolOptions node = spbc.resolve(ProtocolOptions.NONE.with("--clusters", "node"), 4);
        assertEquals(
                "ranks:0,0,1,1", spbc.placed(node, () -> new int[] {7, 7, 3, 3}).get("--clusters"));
        ProtocolDescriptor mcml = ProtocolRegistry.get("mcml");
        assertThrows(
                IllegalArgumentException.class,
                () -> mcml.resolve(ProtocolOptions.NONE.with("--switch-off", "dendrogram=0/1"), 3));
        assertEquals("heaviest", mcml.resolve(ProtocolOptions.NONE, 3).get("--switch-off"));
    }
}
