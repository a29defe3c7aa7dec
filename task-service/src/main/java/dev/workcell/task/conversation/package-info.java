/**
 * The task, its runs and its messages as stored rows. The task, run and message features all read
 * and write these rows; keeping them here, below all three, is what lets those features depend on
 * each other in one direction only (task and message above run).
 */
package dev.workcell.task.conversation;
