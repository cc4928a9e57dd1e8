// Async boundary so shared singletons resolve before any module uses them.
import('./bootstrap');
