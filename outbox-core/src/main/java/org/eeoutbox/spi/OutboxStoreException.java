package org.eeoutbox.spi;

/** The database failed while the store worked; the cause holds the original exception. */
public class OutboxStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OutboxStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
