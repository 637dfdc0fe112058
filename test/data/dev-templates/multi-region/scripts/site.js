document.documentElement.setAttribute('data-template-script', 'ran');
