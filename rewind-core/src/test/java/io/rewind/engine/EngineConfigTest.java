package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EngineConfigTest {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    @AfterEach
    void clearProperties() {
        System.clearProperty(EngineConfig.SPIN_POLLS_PROPERTY);
        System.clearProperty(EngineConfig.YIELD_MICROS_PROPERTY);
    }

    @Test
    void rankProcessesWithACoreEachSpinThenYieldBeforeTheyPark() {
        EngineConfig c = EngineConfig.forRankProcesses(CORES);
        assertEquals(100, c.spinIterations());
        assertEquals(10_000_000L, c.yieldNanos());
    }

    @Test
    void rankThreadsWithACoreEachSpinThenPark() {
        EngineConfig c = EngineConfig.forRanks(CORES);
        assertEquals(10_000, c.spinIterations());
        assertEquals(0, c.yieldNanos());
    }

    @Test
    void ranksThatOutnumberTheCoresParkAtOnce() {
        for (EngineConfig c :
                new EngineConfig[] {EngineConfig.forRanks(CORES + 1), EngineConfig.forRankProcesses(CORES + 1)}) {
            assertEquals(0, c.spinIterations());
            assertEquals(0, c.yieldNanos());
        }
    }

    @Test
    void propertiesOverrideBothFigures() {
        System.setProperty(EngineConfig.SPIN_POLLS_PROPERTY, "7");
        System.setProperty(EngineConfig.YIELD_MICROS_PROPERTY, " 250 ");
        EngineConfig c = EngineConfig.forRanks(CORES + 1);
        assertEquals(7, c.spinIterations());
        assertEquals(250_000L, c.yieldNanos());
    }

    @Test
    void aPropertyThatIsNotAWholeNumberIsRefusedByName() {
        for (String bad : new String[] {"-1", "ten", "1.5", ""}) {
            System.setProperty(EngineConfig.YIELD_MICROS_PROPERTY, bad);
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> EngineConfig.forRanks(1), bad);
            assertTrue(e.getMessage().contains(EngineConfig.YIELD_MICROS_PROPERTY), e.getMessage());
        }
    }

    @Test
    void negativeFiguresAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new EngineConfig(1, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new EngineConfig(1, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new EngineConfig(-1, 0, 0));
    }

    @Test
    void anotherEagerLimitKeepsTheWaiting() {
        EngineConfig c = new EngineConfig(1, 2, 3).withEagerLimit(9);
        assertEquals(new EngineConfig(9, 2, 3), c);
    }
}
