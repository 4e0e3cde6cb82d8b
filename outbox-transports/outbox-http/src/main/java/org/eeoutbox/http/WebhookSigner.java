package org.eeoutbox.http;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs webhook requests as the <a href="https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md">Standard
 * Webhooks</a> specification defines: {@code webhook-signature} holds {@code v1,} and the base64
 * HMAC-SHA256, under each secret, of {@code <webhook-id>.<webhook-timestamp>.<body>}, the
 * signatures separated by spaces. Several secrets serve a rotation: the receiver accepts the
 * request when one of them verifies.
 *
 * <p>Immutable and thread-safe. The secrets never appear in {@link #toString()} nor in any
 * message this class produces.
 */
public final class WebhookSigner {

    /** The optional prefix of a secret's text, {@value}. */
    public static final String SECRET_PREFIX = "whsec_";

    /** The shortest secret accepted, {@value} bytes (192 bits), as the specification asks. */
    public static final int MIN_SECRET_BYTES = 24;

    /** The longest secret accepted, {@value} bytes. */
    public static final int MAX_SECRET_BYTES = 64;

    private static final String ALGORITHM = "HmacSHA256";

    private final List<Secret> secrets;

    private WebhookSigner(List<Secret> secrets) {
        this.secrets = List.copyOf(secrets);
    }

    /**
     * A secret's key, and a {@link Mac} initialized with it that is never used itself: each
     * signature works on a clone, which skips the provider lookup and the key set-up. Cloning only
     * reads the prototype, which no one updates, so threads may clone it at once.
     */
    private record Secret(SecretKeySpec key, Mac prototype) {

        Secret(SecretKeySpec key) {
            this(key, initialized(key));
        }

        /** A fresh {@link Mac} with the key set; a new one where the provider's cannot be cloned. */
        Mac mac() {
            try {
                return (Mac) prototype.clone();
            } catch (CloneNotSupportedException e) {
                return initialized(key);
            }
        }
    }

    /**
     * Returns a signer for the given secrets, each the base64 of {@value #MIN_SECRET_BYTES} to
     * {@value #MAX_SECRET_BYTES} random bytes, with or without the {@value #SECRET_PREFIX} prefix.
     *
     * @throws IllegalArgumentException if there is no secret, or one is not valid base64 or of the
     *                                  wrong length; the message says which (by position, from
     *                                  1) and never shows a secret
     */
    public static WebhookSigner of(List<String> secrets) {
        if (secrets == null || secrets.isEmpty()) {
            throw new IllegalArgumentException("at least one signing secret is needed");
        }
        List<Secret> parsed = new ArrayList<>(secrets.size());
        for (int i = 0; i < secrets.size(); i++) {
            parsed.add(new Secret(key(secrets.get(i), i + 1)));
        }
        return new WebhookSigner(parsed);
    }

    private static SecretKeySpec key(String secret, int position) {
        String text = secret == null ? "" : secret.strip();
        if (text.startsWith(SECRET_PREFIX)) {
            text = text.substring(SECRET_PREFIX.length());
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("signing secret " + position + " is not valid base64");
        }
        if (bytes.length < MIN_SECRET_BYTES || bytes.length > MAX_SECRET_BYTES) {
            throw new IllegalArgumentException("signing secret " + position + " holds " + bytes.length
                    + " bytes; it must hold " + MIN_SECRET_BYTES + " to " + MAX_SECRET_BYTES
                    + " (for example: openssl rand -base64 32)");
        }
        return new SecretKeySpec(bytes, ALGORITHM);
    }

    /**
     * Returns the value of {@code webhook-signature} for one request.
     *
     * @param id               the {@code webhook-id}: the entry's id
     * @param timestampSeconds the {@code webhook-timestamp}: seconds since the epoch, of this attempt
     * @param body             the request body exactly as sent
     */
    public String sign(String id, long timestampSeconds, String body) {
        byte[] content = (id + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8);
        StringBuilder signature = new StringBuilder(secrets.size() * 48);
        for (Secret secret : secrets) {
            if (!signature.isEmpty()) {
                signature.append(' ');
            }
            signature.append("v1,").append(Base64.getEncoder().encodeToString(secret.mac().doFinal(content)));
        }
        return signature.toString();
    }

    private static Mac initialized(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            // Every Java platform has HmacSHA256, and the key is a valid HMAC key.
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    @Override
    public String toString() {
        return "WebhookSigner[" + secrets.size() + (secrets.size() == 1 ? " secret]" : " secrets]");
    }
}
