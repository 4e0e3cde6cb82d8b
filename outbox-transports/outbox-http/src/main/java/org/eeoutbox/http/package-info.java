/**
 * The HTTP transport: {@link org.eeoutbox.http.HttpDelivery} says where an entry goes (a logical
 * service name and a path, never a host), an {@link org.eeoutbox.http.HttpServiceResolver} maps the
 * service name to a base URL the runtime configures, and
 * {@link org.eeoutbox.http.HttpMessageDeliverer} sends it, with the JDK {@code HttpClient} or Apache
 * HttpClient 5 ({@link org.eeoutbox.http.HttpClientKind}, behind the internal seam
 * {@code HttpSender}), and classifies the outcome.
 *
 * <p>Delivery metadata is written and read with Jakarta JSON Processing (JSON-P), which every
 * Jakarta EE 10 server provides; outside a server add an implementation such as Eclipse Parsson.
 */
package org.eeoutbox.http;
