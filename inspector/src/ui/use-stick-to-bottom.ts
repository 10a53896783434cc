/** Follows a stream while the reader is at the bottom; leaves them where they are once they scroll up. */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

const NEAR_BOTTOM_PX = 40;

export function useStickToBottom(content: unknown): RefObject<HTMLElement | null> {
  const ref = useRef<HTMLElement>(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element !== null && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [content]);
  const mounted = ref.current !== null;
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return undefined;
    const onScroll = (): void => {
      atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
    };
    element.addEventListener('scroll', onScroll);
    return () => element.removeEventListener('scroll', onScroll);
  }, [mounted]);
  return ref;
}
