package org.eeoutbox;

import java.util.ArrayList;
import java.util.List;

/**
 * A <a href="https://www.w3.org/TR/trace-context/">W3C Trace Context</a>: the {@code traceparent}
 * and {@code tracestate} of a span, as HTTP headers and Kafka record headers carry them (never
 * baggage). The outbox stores the context of the transaction that published an entry, and sends
 * the context of the entry's delivery span with each attempt ({@link OutboxEntry#traceContext()}).
 *
 * <p>Immutable. Both values are safe to send as header values: printable ASCII only.
 *
 * @param traceparent version {@code 00}: {@code 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>}, lower
 *                    case, neither id all zeros; {@value #TRACEPARENT_LENGTH} characters
 * @param tracestate  the vendors' list, or {@code null}; at most {@value #MAX_TRACESTATE_LENGTH} characters and
 *                    {@value #MAX_TRACESTATE_MEMBERS} list members, each printable ASCII without a comma
 */
public record TraceContext(String traceparent, String tracestate) {

    /** The length of a version {@code 00} {@code traceparent}, {@value}. */
    public static final int TRACEPARENT_LENGTH = 55;
    /** The longest {@code tracestate} kept, {@value} characters: what W3C asks every vendor to pass on. */
    public static final int MAX_TRACESTATE_LENGTH = 512;
    /** The most {@code tracestate} list members, {@value}, as W3C allows. */
    public static final int MAX_TRACESTATE_MEMBERS = 32;
    /** A member longer than this, {@value} characters, is the first dropped when a tracestate is too long. */
    private static final int LONG_MEMBER = 128;

    /**
     * @throws IllegalArgumentException if {@code traceparent} is not a valid version {@code 00}
     *                                  value or {@code tracestate} breaks the limits above; the
     *                                  message names which
     */
    public TraceContext {
        if (!isTraceparent(traceparent)) {
            throw new IllegalArgumentException("traceparent must be a W3C version 00 traceparent, got: " + traceparent);
        }
        if (tracestate != null && !tracestate.equals(bounded(tracestate))) {
            throw new IllegalArgumentException("tracestate must be at most " + MAX_TRACESTATE_LENGTH + " characters in "
                    + "at most " + MAX_TRACESTATE_MEMBERS + " comma-separated members of printable ASCII, got: "
                    + tracestate);
        }
    }

    /**
     * Returns the context of two header values, or {@code null} when {@code traceparent} is absent
     * or invalid. Never throws: an invalid {@code tracestate} loses its invalid members, and one
     * too long loses members as W3C says (first those longer than 128 characters, then from the
     * end) instead of failing the caller, a publish or a claim.
     */
    public static TraceContext parse(String traceparent, String tracestate) {
        if (!isTraceparent(traceparent)) {
            return null;
        }
        return new TraceContext(traceparent, tracestate == null ? null : bounded(tracestate));
    }

    /** Returns the 32 hex digits of the trace id. */
    public String traceId() {
        return traceparent.substring(3, 35);
    }

    /** Returns the 16 hex digits of the span id, the parent id of whoever receives this context. */
    public String spanId() {
        return traceparent.substring(36, 52);
    }

    /** Returns whether the sampled flag is set. */
    public boolean sampled() {
        return (Character.digit(traceparent.charAt(54), 16) & 1) == 1;
    }

    private static boolean isTraceparent(String value) {
        if (value == null || value.length() != TRACEPARENT_LENGTH || !value.startsWith("00-")
                || value.charAt(35) != '-' || value.charAt(52) != '-') {
            return false;
        }
        return isLowerHex(value, 3, 35) && isLowerHex(value, 36, 52) && isLowerHex(value, 53, 55)
                && !isZeros(value, 3, 35) && !isZeros(value, 36, 52);
    }

    private static boolean isLowerHex(String value, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isZeros(String value, int from, int to) {
        for (int i = from; i < to; i++) {
            if (value.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }

    /**
     * The valid members of {@code tracestate}, at most {@value #MAX_TRACESTATE_MEMBERS}, cut to
     * {@value #MAX_TRACESTATE_LENGTH} characters as W3C says; {@code null} when none is left.
     */
    private static String bounded(String tracestate) {
        List<String> members = new ArrayList<>();
        for (String member : tracestate.split(",", -1)) {
            String trimmed = member.strip();
            if (!trimmed.isEmpty() && trimmed.indexOf('=') > 0 && isPrintableAscii(trimmed)
                    && members.size() < MAX_TRACESTATE_MEMBERS) {
                members.add(trimmed);
            }
        }
        while (String.join(",", members).length() > MAX_TRACESTATE_LENGTH) {
            int longOne = indexOfLong(members);
            members.remove(longOne >= 0 ? longOne : members.size() - 1);
        }
        return members.isEmpty() ? null : String.join(",", members);
    }

    private static int indexOfLong(List<String> members) {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).length() > LONG_MEMBER) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isPrintableAscii(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return traceparent;
    }
}
