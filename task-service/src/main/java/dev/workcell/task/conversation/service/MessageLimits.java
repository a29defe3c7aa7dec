package dev.workcell.task.conversation.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Text;

/** The fixed limits on what a user may send (seed 004's table), each with its stable code. */
public final class MessageLimits {

  private MessageLimits() {}

  /** A new-task, run or mid-run message: at most 65,536 characters and 65,536 UTF-8 bytes. */
  public static String requireUserMessage(String content) {
    if (content == null || content.isBlank()) {
      throw Failures.invalid("the message is empty");
    }
    if (content.length() > Limits.MESSAGE_MAX_CHARS) {
      throw Failures.error(ErrorCode.MESSAGE_TOO_LONG,
          "the message has " + content.length() + " characters; at most " + Limits.MESSAGE_MAX_CHARS + " are accepted");
    }
    long bytes = Text.utf8Length(content);
    if (bytes > Limits.MESSAGE_MAX_CHARS) {
      throw Failures.error(ErrorCode.MESSAGE_TOO_LONG,
          "the message has " + bytes + " UTF-8 bytes; at most " + Limits.MESSAGE_MAX_CHARS + " are accepted");
    }
    return content;
  }
}
