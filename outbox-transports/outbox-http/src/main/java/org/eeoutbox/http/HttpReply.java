package org.eeoutbox.http;

/**
 * What {@link HttpOutcomes#outcome} needs of a response. Immutable.
 *
 * @param status     the status code
 * @param location   the {@code Location} header, or {@code null}
 * @param retryAfter the {@code Retry-After} header, or {@code null}
 * @param body       at most {@link HttpMessageDeliverer#MAX_BODY_BYTES} of the body
 */
record HttpReply(int status, String location, String retryAfter, BodyPrefix body) {
}
