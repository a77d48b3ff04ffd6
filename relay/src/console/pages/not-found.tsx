import { Empty, Page } from '../components/page';
import { Link } from '../router';

export function NotFoundPage() {
  return (
    <Page title="No such page">
      <Empty title="This console has no page here.">
        <p>
          Go to the <Link href="/console">sessions</Link>, or pick a page on the left.
        </p>
      </Empty>
    </Page>
  );
}
