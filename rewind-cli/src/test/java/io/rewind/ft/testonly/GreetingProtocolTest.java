package io.rewind.ft.testonly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.cli.CommandRun;
import io.rewind.ft.ProtocolRegistry;
import org.junit.jupiter.api.Test;

/**
 * A protocol added in one package plus one registration line gets its option on the command line
 * ({@code rewind run --help}, {@code rewind protocols}), and the value a user gives reaches the
 * protocol when the job starts, read by the protocol's own parser; the command line names no protocol.
 */
class GreetingProtocolTest {
    private static final String PROGRAM = "io.rewind.apps.examples.Hello";

    @Test
    void theRegistryFindsItThroughItsOneRegistrationLine() {
        assertEquals("greeting", ProtocolRegistry.get("greeting").name());
        assertTrue(!ProtocolRegistry.recovering().contains(ProtocolRegistry.get("greeting")), "sweeps skip it");
    }

    @Test
    void runHelpAndTheProtocolListShowItsOption() {
        CommandRun help = CommandRun.of("run", "--help");
        assertEquals(0, help.status(), help.err());
        assertTrue(help.out().contains("--greeting=WORD"), help.out());
        assertTrue(help.out().contains("For --protocol greeting (a test-only protocol)"), help.out());
        CommandRun list = CommandRun.of("protocols");
        assertEquals(0, list.status(), list.err());
        assertTrue(list.out().contains("greeting (no recovery)\n"), list.out());
        assertTrue(list.out().contains("--greeting WORD"), list.out());
    }

    @Test
    void theValueGivenReachesTheProtocolAtStart() {
        CommandRun r = CommandRun.of(
                "run",
                "-n",
                "2",
                "--protocol",
                "greeting",
                "--greeting",
                " Bonjour",
                "--summary",
                "--no-record",
                PROGRAM);
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals("bonjour", GreetingProtocol.lastGreeting, "read by the protocol's parser");
        assertTrue(r.err().contains("greeting: bonjour"), r.err());

        CommandRun byDefault = CommandRun.of("run", "-n", "2", "--protocol", "greeting", "--no-record", PROGRAM);
        assertEquals(0, byDefault.status(), byDefault.out() + byDefault.err());
        assertEquals("hello", GreetingProtocol.lastGreeting);
    }

    @Test
    void itsOptionIsRefusedForAnotherProtocolAndWithABadValue() {
        CommandRun other = CommandRun.of("run", "-n", "2", "--greeting", "hi", "--no-record", PROGRAM);
        assertEquals(2, other.status(), other.out() + other.err());
        assertTrue(
                other.err()
                        .contains(
                                "--greeting is for the test-only greeting protocol (--protocol greeting), not for none"),
                other.err());
        CommandRun bad =
                CommandRun.of("run", "-n", "2", "--protocol", "greeting", "--greeting", "42", "--no-record", PROGRAM);
        assertEquals(2, bad.status(), bad.out() + bad.err());
        assertTrue(bad.err().contains("--greeting 42: one word of letters"), bad.err());
    }
}
