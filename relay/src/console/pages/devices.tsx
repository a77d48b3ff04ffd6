import { Page } from '../components/page';

export function DevicesPage() {
  return <Page title="Devices">todo</Page>;
}
