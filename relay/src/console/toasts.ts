import { useEffect, useState } from 'preact/hooks';

// Short notices ("Key revoked") read out by screen readers through one aria-live region (components/toasts).

export interface Toast {
  id: number;
  text: string;
  tone: 'ok' | 'error';
}

const TOAST_MS = 5000;
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<(list: Toast[]) => void>();

function publish(list: Toast[]): void {
  toasts = list;
  for (const listener of listeners) listener(toasts);
}

export function toast(text: string, tone: Toast['tone'] = 'ok'): void {
  const id = nextId++;
  publish([...toasts, { id, text, tone }]);
  setTimeout(() => dismiss(id), TOAST_MS);
}

export function dismiss(id: number): void {
  publish(toasts.filter((t) => t.id !== id));
}

export function useToasts(): Toast[] {
  const [list, setList] = useState(toasts);
  useEffect(() => {
    listeners.add(setList);
    setList(toasts);
    return () => void listeners.delete(setList);
  }, []);
  return list;
}
