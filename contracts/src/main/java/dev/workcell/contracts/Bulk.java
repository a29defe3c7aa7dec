package dev.workcell.contracts;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the one large field of a message (a file's text or bytes, up to 2,000,000 bytes). On NATS a
 * large value travels as raw bytes after the rest of the message's JSON instead of as a JSON string:
 * a 2 MB text then costs one copy to decode instead of five, and bytes are not base64-encoded.
 * Only a {@code String} or {@code byte[]} component may carry it, at most one per record.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Bulk {}
