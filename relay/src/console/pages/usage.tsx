import { Page } from '../components/page';

export function UsagePage() {
  return <Page title="Usage">todo</Page>;
}
