import { describe, expect, it } from "vitest";
import { Admission, LINE, WINDOW_MS } from "../../../src/http/admission.js";

/**
 * Which requests a process lets in under load (src/http/admission.ts), on explicit times: a cap
 * on requests in progress, and a standing line (even the quickest answer of a window over the
 * target, or LINE requests in progress for longer) that lets in only a few until it is gone.
 */

const request = () => ({});

describe("admission", () => {
  it("lets in at most `max` at once, and one more when one is done", () => {
    const admission = new Admission(2, Number.POSITIVE_INFINITY);
    const [a, b] = [request(), request()];
    expect([admission.enter(a, 0), admission.enter(b, 1)]).toEqual([undefined, undefined]);
    expect(admission.enter(request(), 2)).toBe("requests in progress");
    admission.leave(a, 3);
    expect(admission.enter(request(), 4)).toBeUndefined();
  });

  it("sees a line when LINE requests wait past the target and none finished in a window", () => {
    const admission = new Admission(256, 100);
    for (let i = 0; i < LINE; i++) expect(admission.enter(request(), i)).toBeUndefined();
    // Within the first window nothing is judged yet.
    expect(admission.enter(request(), 500)).toBeUndefined();
    expect(admission.enter(request(), WINDOW_MS + 1)).toBe("a line");
  });

  it("takes no single slow request for a line: the quickest answer of the window counts", () => {
    const admission = new Admission(256, 100);
    const slow = request();
    admission.enter(slow, 0);
    for (let t = 10; t < 3 * WINDOW_MS; t += 10) {
      const quick = request();
      expect(admission.enter(quick, t)).toBeUndefined();
      admission.leave(quick, t + 5);
    }
    admission.leave(slow, 3 * WINDOW_MS);
  });

  it("sees a line when LINE requests wait past the target, however quick the others are", () => {
    const admission = new Admission(256, 100);
    for (let i = 0; i < LINE; i++) admission.enter(request(), 0);
    for (let t = 10; t < WINDOW_MS; t += 10) {
      const quick = request();
      admission.enter(quick, t);
      admission.leave(quick, t + 1);
    }
    for (let i = 0; i < LINE; i++) admission.enter(request(), WINDOW_MS);
    expect(admission.enter(request(), WINDOW_MS)).toBe("a line");
  });

  it("while a line stands lets in LINE at once, then twice as many each window once it is gone", () => {
    const admission = new Admission(256, 500);
    const slow = Array.from({ length: 40 }, request);
    for (const r of slow) admission.enter(r, 0);
    for (const r of slow) admission.leave(r, 600);
    const first = Array.from({ length: LINE }, request);
    for (const r of first) expect(admission.enter(r, WINDOW_MS)).toBeUndefined();
    expect(admission.enter(request(), WINDOW_MS + 1)).toBe("a line");
    for (const r of first) admission.leave(r, WINDOW_MS + 10);
    const second = Array.from({ length: 2 * LINE }, request);
    for (const r of second) expect(admission.enter(r, 2 * WINDOW_MS)).toBeUndefined();
    expect(admission.enter(request(), 2 * WINDOW_MS + 1)).toBe("a line");
  });

  it("lets in at least LINE while a line stands", () => {
    const admission = new Admission(256, 100);
    const slow = request();
    admission.enter(slow, 0);
    admission.leave(slow, 200);
    for (let i = 0; i < LINE; i++) expect(admission.enter(request(), WINDOW_MS)).toBeUndefined();
    expect(admission.enter(request(), WINDOW_MS)).toBe("a line");
  });
});
