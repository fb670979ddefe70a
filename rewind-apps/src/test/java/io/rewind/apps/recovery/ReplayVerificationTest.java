package io.rewind.apps.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.Capability;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.sender.ReplayFault;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replay verification under every protocol that logs payloads at the sender: a recovery whose
 * messages are not those of the execution before the failure ends the job with one line naming the
 * protocol, the channel and the sequence number, instead of going on with a wrong state. Three
 * faults: a program that is not piecewise deterministic (its re-executed sends differ from what the
 * survivor holds), and two protocol faults injected into a replay on purpose ({@link ReplayFault}: two
 * messages of one channel trade payloads, a logged payload changed). Without the faults the same runs
 * recover and print what they print without failures; with verification off the first fault goes
 * unseen.
 */
@Tag("oracle")
class ReplayVerificationTest {
    private static final Pattern NAMED = Pattern.compile(
            "replay verification failed under protocol (\\S+): .*channel 0 -> 1 \\(context \\d+\\), sequence \\d+.*");

    static Stream<ProtocolDescriptor> senderLogging() {
        return ProtocolRegistry.recovering().stream().filter(p -> p.has(Capability.LOGS_PAYLOADS));
    }

    @AfterEach
    void disarm() {
        ReplayFault.disarm();
    }

    private static JobResult run(ProtocolDescriptor p, String mode, String kill, boolean verify) {
        JobConfig.Builder b = JobConfig.builder(UnrepeatableSends.class.getName())
                .ranks(2)
                .args(mode == null ? List.of("12") : List.of("12", mode))
                .protocol(p)
                .checkpointEvery(2)
                .failures(FailureSchedule.parse(kill, 2))
                .timeout(Duration.ofSeconds(60))
                .stallTimeout(Duration.ofSeconds(20))
                .quiet();
        if (!verify) {
            b.payloadLog(PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                    .verifyReplays(false)
                    .build());
        }
        return Job.run(b.build());
    }

    private static void assertNamed(ProtocolDescriptor p, JobResult r, String what) {
        assertFalse(
                r.ok(),
                () -> "the job ended well: " + r.output(1) + "\n" + r.report().summary());
        String reason = r.abortReason();
        assertTrue(reason != null && NAMED.matcher(reason).find(), () -> "abort reason: " + reason);
        assertTrue(reason.contains("protocol " + p.name() + ":"), reason);
        assertTrue(reason.contains(what), reason);
    }

    @ParameterizedTest
    @MethodSource("senderLogging")
    void aReExecutionThatDiffersFromTheOriginalIsCaughtAtTheSender(ProtocolDescriptor p) {
        assertNamed(p, run(p, null, "0@o22", true), "rank 0 re-executed the send of channel 0 -> 1");
    }

    @ParameterizedTest
    @MethodSource("senderLogging")
    void withoutVerificationTheSameReExecutionGoesUnseen(ProtocolDescriptor p) {
        JobResult r = run(p, null, "0@o22", false);
        assertTrue(r.ok(), r::describeFailures);
    }

    @ParameterizedTest
    @MethodSource("senderLogging")
    void twoReplayedMessagesThatTradePayloadsAreCaughtAtTheReceiver(ProtocolDescriptor p) {
        ReplayFault.SWAP_TWO_MESSAGES.arm();
        JobResult r = run(p, "repeatable", "1@o22", true);
        assertTrue(
                ReplayFault.spent(),
                () -> "the fault was applied:\n" + r.report().summary());
        assertNamed(p, r, "is not the one rank 0 logged");
    }

    @ParameterizedTest
    @MethodSource("senderLogging")
    void aPayloadChangedInTheLogIsCaughtAtTheReceiver(ProtocolDescriptor p) {
        ReplayFault.ALTER_A_PAYLOAD.arm();
        JobResult r = run(p, "repeatable", "1@o22", true);
        assertTrue(
                ReplayFault.spent(),
                () -> "the fault was applied:\n" + r.report().summary());
        assertNamed(p, r, "is not the one rank 0 logged");
    }

    @ParameterizedTest
    @MethodSource("senderLogging")
    void withoutAFaultTheRecoveryIsVerifiedAndPrintsWhatTheFailureFreeRunPrints(ProtocolDescriptor p) {
        JobResult r = run(p, "repeatable", "1@o22", true);
        assertTrue(r.ok(), r::describeFailures);
        assertEquals(List.of("received 48 sum " + (47 * 48 / 2)), r.output(1));
        assertEquals(1, r.report().failures().size());
    }
}
