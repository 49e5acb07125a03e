/** Notices before money moves: a trial's conversion to paid, and each renewal, told ahead. */
export {
  recordUpcomingNotices,
  type UpcomingNoticeCounts,
  type UpcomingNoticeOptions,
} from "./record-upcoming-notices.js";
