package io.rewind.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret of one job: created by the launcher, held in memory only, handed by each process to the
 * processes it starts on their standard input (never on a command line, never in a file), and proved
 * on every connection by an HMAC-SHA256 of a fresh challenge, so a process without it is refused
 * before any of its bytes are read as a frame. Without a file, a job killed whole (the launcher
 * included) leaves no copy of it behind.
 */
public final class JobSecret {
    public static final int BYTES = 32;
    /** Bytes of a challenge and of a proof. */
    public static final int CHALLENGE_BYTES = 32;

    public static final int PROOF_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();
    private final byte[] key;

    private JobSecret(byte[] key) {
        this.key = key;
    }

    /** A new random secret. */
    public static JobSecret generate() {
        byte[] key = new byte[BYTES];
        RANDOM.nextBytes(key);
        return new JobSecret(key);
    }

    /** The secret in {@code file}. */
    public static JobSecret read(Path file) throws IOException {
        byte[] key = Files.readAllBytes(file);
        if (key.length != BYTES) {
            throw new IOException("the job secret " + file + " has " + key.length + " bytes, not " + BYTES);
        }
        return new JobSecret(key);
    }

    /**
     * The secret named by a process's {@code --secret-file} argument: the file, or for {@code -} the
     * first {@link #BYTES} bytes of standard input (how a parent hands it over without a file).
     */
    public static JobSecret fromArgument(String fileOrDash) throws IOException {
        if (!fileOrDash.equals("-")) {
            return read(Path.of(fileOrDash));
        }
        byte[] key = System.in.readNBytes(BYTES);
        if (key.length != BYTES) {
            throw new IOException("standard input ended after " + key.length + " bytes of the job secret");
        }
        return new JobSecret(key);
    }

    /** Hands the secret to a child process on its standard input, which is then closed. */
    public void handTo(Process child) throws IOException {
        try (var in = child.getOutputStream()) {
            in.write(key);
        }
    }

    /** A secret from its bytes (tests). */
    public static JobSecret of(byte[] key) {
        if (key.length != BYTES) {
            throw new IllegalArgumentException("a job secret has " + BYTES + " bytes");
        }
        return new JobSecret(key.clone());
    }

    /** A fresh random challenge. */
    public static byte[] challenge() {
        byte[] c = new byte[CHALLENGE_BYTES];
        RANDOM.nextBytes(c);
        return c;
    }

    /** The proof of holding this secret for {@code challenge}. */
    public byte[] prove(byte[] challenge) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(challenge);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** Whether {@code proof} proves this secret for {@code challenge} (compared in constant time). */
    public boolean verify(byte[] challenge, byte[] proof) {
        return MessageDigest.isEqual(prove(challenge), proof);
    }
}
